% Builtins and options GNU Octave 7 lacks (values checked with NumPy/SciPy and by hand):
% maxk/mink, zscore, vecnorm, conv2, histcounts, movmax/movmin with NaN (MATLAB includes NaN
% by default), unique 'stable' with three outputs, ifft 'symmetric', var/std 'omitnan',
% interp1 'makima'.
x = [3 5 7 7 1 -2 9 0];
[b, i] = maxk(x, 3);
fprintf('%g ', b, i); fprintf('\n');
[b, i] = mink(x, 3);
fprintf('%g ', b, i); fprintf('\n');
[b, i] = mink([4 2; 1 9; 1 0], 2);
fprintf('%g ', b, i); fprintf('\n');
[b, i] = maxk([4 2 5; 1 9 9], 2, 2);
fprintf('%g ', b, i); fprintf('\n');
b = maxk(int16(1:100), 2);
fprintf('%s %d %d\n', class(b), b);
[z, mu, sg] = zscore([1 2; 3 6; 5 10]);
fprintf('%.6g ', z, mu, sg); fprintf('\n');
fprintf('%.6g ', zscore([1 2 3 4], 1), zscore([2 2 2]), zscore([1 2; 3 5], 0, 2));
fprintf('\n');
fprintf('%.6g ', vecnorm([3 4; 0 12]), vecnorm([3 4; 0 12], 2, 2), vecnorm([1 -2 3], 1), ...
        vecnorm([1 -2 3], Inf), vecnorm([3+4i 0]));
fprintf('\n');
fprintf('%g ', conv2([1 2; 3 4], [1 1; 1 1]), conv2(magic(4), [1 0; 0 -1], 'valid'));
fprintf('\n');
fprintf('%g ', conv2(magic(3), ones(3), 'same'), conv2([1 2], [1; 1], magic(3)));
fprintf('\n');
fprintf('%g ', histcounts([0.1 0.5 0.5 1 2 3 NaN], [0 0.5 1 3]));
fprintf('\n');
[n, e, bin] = histcounts([1 2 2 3 5 8], [0 2 4 6 8]);
fprintf('%g ', n, e, bin); fprintf('\n');
fprintf('%g ', movmax([4 2 NaN 1 5 3], 3), movmin([4 2 NaN 1 5 3], 3, 'omitnan'));
fprintf('\n');
fprintf('%g ', movmean([1 2 NaN 4 5 6], 3), movsum([1 2 NaN 4 5 6], [1 0], 'omitnan'));
fprintf('\n');
fprintf('%g ', movmedian([1 NaN 3 4 10], 3, 'omitnan'), movmean(1:5, 3, 'Endpoints', 'fill'));
fprintf('\n');
fprintf('%g ', movsum(1:6, 3, 'Endpoints', 10));
fprintf('\n');
[u, ia, ic] = unique([3 1 NaN 2 1 NaN 3], 'stable');
fprintf('%g ', u, ia, ic); fprintf('\n');
fprintf('%g ', ifft([1 2+1i 3 4-1i], 'symmetric'), ifft([10 -2+2i -2 -2-2i]));
fprintf('\n');
fprintf('%.6g ', var([1 2 NaN 4; 2 4 6 9], 0, 2, 'omitnan'), std([1 NaN 3], 'omitnan'));
fprintf('\n');
[s, i] = sort([2 NaN 1 NaN], 'MissingPlacement', 'first');
fprintf('%g ', s, i); fprintf('\n');
fprintf('%g ', ismember([2 5], [3 2 2 5]), prctile((1:10)', [25 50]));
fprintf('\n');
fprintf('%.6g ', interp1(1:7, [1 2 2 2 5 9 9], [1.5 4.5], 'makima'));
fprintf('\n');
