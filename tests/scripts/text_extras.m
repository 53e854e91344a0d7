% strjust, strtok, validatestring, isletter, isstrprop, celldisp (checked against GNU Octave).
J = strjust(['a  '; 'bb '], 'right');
disp(['[' J(1, :) ']']); disp(['[' J(2, :) ']'])
disp(['[' strjust('  a ', 'left') ']'])
disp(['[' strjust(' ab   ', 'center') ']'])
[t, r] = strtok('  hello world');
disp(['[' t '][' r ']'])
[t, r] = strtok('a,b,c', ',');
disp(['[' t '][' r ']'])
c = strtok({'one two', 'three four'});
disp(c{1}); disp(c{2})
disp(validatestring('app', {'apple', 'banana'}))
disp(validatestring('r', {'red', 'green'}))
disp(validatestring('app', {'apple', 'applesauce'}))
try
  validatestring('x', {'apple', 'banana'});
catch ME
  disp(ME.identifier)
end
disp(isletter('a1 B'))
disp(isstrprop('a1 B.', 'digit'))
disp(isstrprop('a1 B.', 'wspace'))
disp(isstrprop('a1 B.', 'upper'))
disp(isstrprop('a1 B.', 'punct'))
celldisp({1, 'two'}, 'q')
