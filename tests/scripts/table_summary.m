% summary of a table (printed and as a struct), datetime variables in tables (display, row
% indexing, concatenation, writetable), and type of a text file.
T = table([1;2;NaN;4], [true;false;true;true], {'a';'b';'c';'d'}, ...
          'VariableNames', {'Age','Smoker','Name'});
T.Properties.VariableUnits = {'years', '', ''};
summary(T)
s = summary(T);
disp(s.Age.NumMissing)
disp(s.Smoker.True)
disp(s.Name.Type)
T2 = table(datetime(2020,1,1:3)', [1;2;3], 'VariableNames', {'When','X'})
T3 = T2(2:3, :)
w = T2.When(2)
T4 = [T2; T3];
disp(height(T4))
T5 = T2([3 1], :)
f = [tempname '.csv'];
writetable(T2, f);
type(f)
delete(f)
try
  type('no_such_file_here.txt')
catch e
  disp(e.identifier)
end
