% Matrix tests, rref/rcond, page functions, repelem/perms, logspace, bsxfun, polynomial
% calculus, spline/pchip, gradient, unwrap, sinc, freqz, filter2, interp2, histc and
% coordinate transforms (outputs checked against GNU Octave where Octave has the function).
disp(issymmetric([1 2; 2 1])); disp(ishermitian([1 1i; -1i 1])); disp(isdiag(eye(3)))
disp(istril([1 0; 1 1])); disp(istriu([1 0; 1 1])); disp(issymmetric([0 1; -1 0], 'skew'))
disp(vecnorm([3 4; 0 0])); disp(vecnorm([3 4; 0 0], 2, 2)); disp(vecnorm([1 -2 3], Inf))
[R, jb] = rref(magic(4)); fprintf("%g %g %g %g\n", round(R.' * 1e12) / 1e12 + 0); disp(jb)
fprintf('%.6f\n', rcond([1 1/2 1/3; 1/2 1/3 1/4; 1/3 1/4 1/5]))
disp(rcond(eye(3)))
A = reshape(1:24, 2, 3, 4); B = permute(A, [3 1 2]); disp(isequal(ipermute(B, [3 1 2]), A))
disp(size(pagetranspose(A)))
Z = pagemtimes(reshape(1:8, 2, 2, 2), [0 1; 1 0]); disp(Z(:, :, 2))
disp(pagemtimes([1 2; 3 4], 'transpose', [1 0; 0 1], 'none'))
disp(repelem([1 2 3], 2)); disp(repelem([1 2; 3 4], 2, 3)); disp(repelem({'a', 'b'}, [1 2]))
disp(perms([1 2 3]))
p = randperm(6); disp(sort(p)); disp(numel(randperm(10, 3)))
disp(logspace(0, 2, 3)); disp(logspace(0, pi, 3))
disp(bsxfun(@minus, [1 2 3; 4 5 6], [1 2 3]))
disp(polyder([1 2 3 4])); disp(polyder([1 1], [1 -1])); [q, d] = polyder(1, [1 1]); disp(q); disp(d)
disp(polyint([3 2 1])); disp(polyint([3 2 1], 5))
x = 0:4; y = x.^3; pp = spline(x, y); fprintf('%g %g %g %g\n', round(pp.coefs.' * 1e9) / 1e9 + 0);
disp(spline(x, y, 2.5)); disp(spline([0 1 2], [0 1 4], 1.5))
disp(pchip(x, y, [0.5 2.5]))
disp(gradient([1 4 9 16 25])); [gx, gy] = gradient(magic(3)); disp(gx); disp(gy)
disp(unwrap([0 3 6.5 -3]))
disp(sinc([0 0.5 1]))
[h, w] = freqz([1 1], 1, 4); disp(h); disp(w)
disp(filter2([1 2; 3 4], magic(3))); disp(filter2([1 2; 3 4], magic(3), 'valid'))
[X, Y] = meshgrid(1:3); V = X + 10*Y; disp(interp2(X, Y, V, 1.5, 2.5))
disp(interp2(V, [1 2.5], [1 1.5])); disp(interp2(V, 4, 4))
[n, b] = histc([1 2 2 3 5], [1 2 3]); disp(n); disp(b)
[t, r] = cart2pol(1, 1); fprintf('%.4f %.4f\n', t, r);
[x, y, z] = sph2cart(0, 0, 1); disp([x y z])
[az, el, r] = cart2sph(1, 1, 0); fprintf('%.4f %.4f %.4f\n', az, el, r);
[x, y] = pol2cart(pi, 2); fprintf('%.4f %.4f\n', x, y);
