% corrcoef 'Rows','pairwise' and cov 'partialrows' use, for each pair of columns, only the
% rows where both are not NaN (regression: they gave all NaN / zeros).
X = [1 2 NaN; 2 4 1; 3 5 2; 4 9 5; NaN 1 3; 5 7 4];
R = corrcoef(X, 'Rows', 'pairwise');
fprintf('%.6f %.6f %.6f\n', R.');
C = cov(X, 'partialrows');
fprintf('%.6f %.6f %.6f\n', C.');
Rc = corrcoef(X, 'Rows', 'complete');
fprintf('%.6f %.6f %.6f\n', Rc.');
