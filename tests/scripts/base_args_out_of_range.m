% Bases and bit counts far outside int (1e12, Inf) are MATLAB errors, checked before any
% conversion to an integer (which was undefined for them).
args = {{'base2dec', '11', 1e12}, {'base2dec', '11', -Inf}, {'dec2base', 5, 1e12}, ...
        {'bitcmp', uint8(5), 1e12}, {'bitcmp', uint8(5), -1}};
for k = 1:numel(args)
  a = args{k};
  try
    feval(a{:});
    disp('no error')
  catch err
    disp(err.identifier)
  end
end
disp(base2dec('11', 3))
disp(dec2base(5, 2))
disp(bitcmp(uint8(5), 4))
