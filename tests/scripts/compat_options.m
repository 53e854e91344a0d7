% Options of existing builtins that MATLAB scripts use: flip direction names, issorted
% strict/monotonic forms, any/all 'omitnan', circshift with a dimension vector, struct([]),
% num2cell(A, dims), nested getfield/setfield paths (MATLAB documentation semantics).
disp(flip([1 2; 3 4], 'horizontal')); disp(flip([1 2; 3 4], 'vertical'))
disp(issorted([1 2 2], 'strictascend')); disp(issorted([1 2 3], 'strictascend'))
disp(issorted([3 2 1], 'strictdescend')); disp(issorted([3 2 1], 'monotonic'))
disp(issorted([1 3 2], 'monotonic'))
disp(any([NaN 0], 'omitnan')); disp(any([NaN 0])); disp(all([NaN 1], 'omitnan'))
disp(all([NaN 0; NaN 1], 1, 'omitnan'))
disp(circshift(magic(3), [1 1], [1 2]))
disp(circshift(1:5, 2, 2))
s = struct([]); disp(size(s)); disp(isempty(fieldnames(s)))
c = num2cell([1 2; 3 4], 2); disp(size(c)); disp(c{2})
c = num2cell([1 2; 3 4], 1); disp(size(c)); disp(c{2})
c = num2cell(reshape(1:8, 2, 2, 2), [1 2]); disp(size(c)); disp(c{2})
t.a.b = 5; disp(getfield(t, 'a', 'b'))
u = setfield(struct(), 'a', 'b', 3); disp(u.a.b)
u = setfield(u, 'a', 'c', 4); disp(u.a)
