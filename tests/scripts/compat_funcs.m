% structfun, cell2struct, struct2cell, evalc, iskeyword, setxor, ismembertol, fillmissing,
% histcounts2, allfinite (outputs checked against GNU Octave where Octave has the function,
% otherwise against MATLAB's documentation examples).
disp(iskeyword('for')); disp(iskeyword('x'))
s.a = 1; s.b = 2; disp(structfun(@(v) v*2, s))
t = structfun(@(v) v + 1, s, 'UniformOutput', false); disp(t.b)
c = cell2struct({1; 'two'}, {'f1', 'f2'}, 1); disp(c.f2)
c = cell2struct({1, 2; 3, 4}, {'x', 'y'}, 2); disp(size(c)); disp(c(2).y)
disp(struct2cell(s))
t = evalc('disp(42)'); disp(double(t))
[C, ia, ib] = setxor([1 2 3 4], [3 4 5]); disp(C); disp(ia'); disp(ib')
disp(ismembertol([1 1.0000000000001 2], [1 3]))
[tf, loc] = ismembertol([0.99 2], [1 2], 0.05); disp(tf); disp(loc)
disp(fillmissing([1 NaN 3 NaN], 'previous')); disp(fillmissing([1 NaN 3 NaN 7], 'linear'))
disp(fillmissing([NaN 2], 'constant', 0)); disp(fillmissing([1 NaN NaN 4], 'nearest'))
N = histcounts2([1 2 3 4], [1 2 3 4], [0 2 4], [0 2 4]); disp(N)
disp(allfinite([1 2 Inf])); disp(allfinite([1 2 3]))
disp(ismethod(containers.Map(), 'keys'))
