% An integer power that would need complex results fails at its own statement, inside the try
% around it, also for arrays large enough to be captured lazily.
try
  x = int16(-39 * ones(1, 40000)) .^ 0.5;
  disp('not reached')
catch e
  disp(e.message)
end
y = int16(4 * ones(1, 40000)) .^ 0.5;
disp(y(1:3))
