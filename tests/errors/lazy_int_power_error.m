x = int16(-39 * ones(1, 40000)) .^ 0.5;
disp('not reached')
