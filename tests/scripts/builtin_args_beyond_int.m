% Counts, precisions, handles and sizes far outside int or int64 (NaN, Inf, 1e12, 1e300) are
% MATLAB errors checked before any conversion to an integer, which was undefined for them (found
% by BuiltinsFuzz under UBSan); element counts beyond memory fail before allocating or looping.
args = {{'figure', Inf}, {'figure', 1e12}, {'freqz', [1 1], 1, NaN}, ...
        {'histcounts', 1:12, 1e300}, {'histcounts', 1:12, 'NumBins', 1e300}, ...
        {'mat2str', magic(3), NaN}, {'mat2str', pi, 1e12}, {'num2str', pi, Inf}, ...
        {'tiledlayout', Inf, 1}, {'tiledlayout', 2, NaN}, {'nexttile', Inf}, ...
        {'nexttile', [1 Inf]}, {'rand', 1e12}, {'zeros', 1e12, 1e12}, ...
        {'regexprep', 'aaa', 'a', 'b', NaN}, {'repelem', NaN, 1e12, 1}, {'repelem', 1, Inf}, ...
        {'repelem', [1 2], [1e12 1e12]}, {'rmoutliers', [1 2 30], NaN}, ...
        {'subplot', 1e12}, {'subplot', Inf, 1, 1}, {'subplot', 2, 2, NaN}, ...
        {'subplot', 2, 2, 1e12}, {'wilkinson', Inf}, {'wilkinson', 1e300}, ...
        {'integral', @sin, 0, 1, 'MaxIntervalCount', NaN}, {'strncmp', 'abc', 'abd', NaN}, ...
        {'datenum', '01/02/03', NaN}, {'datestr', 1, NaN}, {'datestr', 1, 1e12}, ...
        {'cellfun', 'size', {ones(2, 3)}, NaN}, {'caldiff', datetime(2020, 1, 1:3), {'days'}, NaN}};
% Whole numbers past int64 (1e300), whose conversion was undefined: size errors, or what any
% very large value gives.
args = [args, {{'randperm', 1e300}, {'magic', 1e300}, {'hilb', 1e300}, {'invhilb', 1e300}, ...
        {'invhilb', 1e12}, {'diag', 1:3, 1e300}, {'reshape', 1:4, 1e300, []}, ...
        {'fft', 1:3, 1e300}, {'pad', 'a', 1e300}, {'extractBefore', 'abc', 1e300}, ...
        {'mat2cell', 1:4, 1, [1e300 1]}, {'polyfit', 1:3, 1:3, 1e300}, ...
        {'legendre', 1e300, 0.5}, {'sscanf', '1 2', '%d', [NaN 1]}, {'rats', 0.5, Inf}, ...
        {'shiftdim', 1, -1e300}, {'discretize', 1:3, []}}];
for k = 1:numel(args)
  a = args{k};
  try
    feval(a{:});
    disp('no error')
  catch err
    disp(err.identifier)
  end
end
close all
% In-range values keep working.
disp(regexprep('aaa', 'a', 'b', 2))
disp(regexprep('aaa', 'a', 'b', Inf))
disp(repelem([1 2], [2 3]))
disp(mat2str(pi, 4))
disp(num2str(pi, 8))
disp(histcounts([1 2 2 3], 3))
disp(topkrows([3 1; 1 2; 2 0], Inf))
disp(textscan('1 2 3', '%f', NaN){1}')
disp(wilkinson(3))
disp([strncmp('abc', 'abd', Inf) strncmp('abc', 'abc', Inf) strncmp('abc', 'abd', 2)])
disp(cellfun('size', {ones(2, 3), 1}, 5))
fprintf('%.6f\n', integral(@sin, 0, pi, 'MaxIntervalCount', 1e12));
try
  t = table('Size', [NaN 2], 'VariableTypes', {'double', 'double'});
catch err
  disp(err.identifier)
end
rng(5, 'twister');
s0 = rng;
s = s0;
s.State = double(s.State);
s.State(3) = NaN;
try
  rng(s);
catch err
  disp(err.identifier)
end
rng(s0); a = rand(1, 2); rng(s0); b = rand(1, 2);
disp(isequal(a, b))
% NaN pads faces with fewer vertices (its conversion to an index was undefined).
p = patch('Faces', [1 2 3 NaN; 1 3 4 2], 'Vertices', [0 0; 1 0; 1 1; 0 1]);
disp(p.XData')
close all
% Shifts are taken modulo the length in double (1e300 and 2^53 were undefined to convert).
disp([circshift(1:5, 1e300); circshift(1:5, 2^53); circshift(1:5, -7)])
disp(circshift((1:3)', 1, 1e12)')
disp(size(diff(1:3, 1e300)))
[b, n] = shiftdim(ones(1, 1, 3), 1e300);
disp([size(b), n == 1e300])
disp([1e300, -1, 1] == [1e300, -1, true])
disp([-1; 1e300; true; "x"])
h = image([], [], magic(3));
disp([h.XData, h.YData])
close all
disp([isprime(1e300) isprime(2^31 - 1)])
disp([sscanf('1 2', '%d', 1e300)' find(1:3, 1e300)])
disp(isnat(datetime(2020, 1, 1) + calmonths(1e300)))
% A datetime past the calendar's years (about 30,000 from 1970) is NaT, however it was made;
% before, days(1e300) away displayed as a garbage date. Years within the range keep their date.
d = [datetime(2020, 1, 1) + days(1e300), datetime(1e20, 'ConvertFrom', 'posixtime'), ...
     datetime(2020, 1, 1, 0, 0, 1e300), datetime(2020, 1, 1) + caldays(1e18), ...
     datetime(2020, 1, 1) + years(-[1e4 5e4]), datetime(2020, 1, 1) - days(Inf)];
disp(class(d))
disp(isnat(d))
disp(string(d(5)))
tiledlayout(2, 2);
ax = nexttile(4);
disp(class(ax))
close all
