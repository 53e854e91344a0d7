% table errors: MATLAB's identifiers and messages for bad input.
T = table([1; 2], {'a'; 'b'}, 'VariableNames', {'N', 'S'});
tries = {
  @() T.Missing
  @() T(1)
  @() T(3, :)
  @() T(:, 4)
  @() T{1, 'Nope'}
  @() table([1; 2], [1; 2; 3])
  @() table([1; 2], 'VariableNames', {'a', 'b'})
  @() table([1; 2], [3; 4], 'VariableNames', {'a', 'a'})
  @() T('r1', :)
  @() [T, T]
  @() [T; table(1, 'VariableNames', {'Other'})]
  @() innerjoin(T, table([1; 2], 'VariableNames', {'Q'}))
  @() join(T, table([1; 1], [5; 6], 'VariableNames', {'N', 'W'}))
  @() height()
  @() table2array(5)
  @() groupsummary(T, 'S', 'avg')
  @() readtable('no_such_file.csv')
};
for k = 1:numel(tries)
  try
    tries{k}();
    disp('no error');
  catch e
    fprintf('%s | %s\n', e.identifier, e.message);
  end
end
try
  T.N = [1; 2; 3];
catch e
  fprintf('%s | %s\n', e.identifier, e.message);
end
try
  T.Properties.VariableNames = {'x'};
catch e
  fprintf('%s | %s\n', e.identifier, e.message);
end
try
  T(1, 2) = [];
catch e
  fprintf('%s | %s\n', e.identifier, e.message);
end
