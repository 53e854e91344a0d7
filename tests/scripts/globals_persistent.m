% global and persistent variables
global counter
counter = 10;
bump(); bump();
fprintf('counter = %d\n', counter);
for k = 1:3
  n = calls();
end
fprintf('calls = %d\n', n);

function bump()
  global counter
  counter = counter + 1;
end

function n = calls()
  persistent count
  if isempty(count)
    count = 0;
  end
  count = count + 1;
  n = count;
end
