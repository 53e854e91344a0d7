x = h();
function y = h()
end
