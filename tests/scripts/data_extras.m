% nanmean, nansum, nanmax, nanmin, discretize, isoutlier, rmoutliers, topkrows, wrapToPi,
% wrapTo2Pi, wrapTo180, wrapTo360, subsref, subsasgn, substruct, full, issparse, nonzeros
% (examples of MATLAB's reference pages).
x = [1 NaN 3; 4 5 NaN];
disp(nanmean(x)); disp(nansum(x, 2)); disp(nanmax(x)); disp(nanmin(x, [], 2))
Y = discretize([1 3 5 7 10], [0 4 8 10])
Y = discretize([0 4 8 10 11], [0 4 8 10], 'IncludedEdge', 'right')
Y = discretize([1 5 9], [0 4 8 10], [10 20 30])
A = [57 59 60 100 59 58 57 58 300 61 62 60 62 58 57];
TF = isoutlier(A)
[TF, L, U, C] = isoutlier(A, 'mean');
disp([L U C])
TF = isoutlier(A, 'quartiles')
[B, rm] = rmoutliers(A);
disp(B); disp(find(rm))
X = [1 4; 3 2; 5 6; 2 8];
[B, I] = topkrows(X, 2)
B = topkrows(X, 3, 2, 'ascend')
w = wrapToPi([-4 -pi 0 pi 4 2*pi]);
fprintf('%.6f ', w); fprintf('\n');
fprintf('%.6f ', wrapTo2Pi([-1 0 2*pi 7])); fprintf('\n');
disp(wrapTo180([-190 -180 180 190 540]))
disp(wrapTo360([-10 0 360 370 720]))
S = substruct('()', {2, ':'});
M = magic(3);
disp(subsref(M, S))
M2 = subsasgn(M, substruct('()', {1, 1}), 0);
disp(M2(1, :))
st.a.b = [1 2 3];
disp(subsref(st, substruct('.', 'a', '.', 'b', '()', {3})))
st = subsasgn(st, substruct('.', 'a', '.', 'c'), 'new');
disp(st.a.c)
c = {1, [5 6 7]};
disp(subsref(c, substruct('{}', {2}, '()', {2})))
disp(full([1 0; 0 2])); disp(issparse(1)); disp(nonzeros([0 3; 4 0; 0 5]).')
