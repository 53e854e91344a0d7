% Standard library breadth: math and arrays families (integer-valued results printed with %d).
fprintf('%d ', factorial(0:6)); fprintf('\n');
fprintf('%d %d\n', nchoosek(10, 3), nchoosek(6, 6));
C = nchoosek([2 4 6 8], 2);
fprintf('%d %d\n', C');
fprintf('%d ', primes(40)); fprintf('\n');
fprintf('%d ', isprime([1 2 15 17 91 97])); fprintf('\n');
fprintf('%d ', gcd([12 18 27], 9), lcm([4 6 9], 6)); fprintf('\n');
[g, u, v] = gcd(240, 46);
fprintf('%d %d\n', g, 240*u + 46*v);
fprintf('%d ', cross([1 2 3], [4 5 6]), dot([1 2 3], [4 5 6])); fprintf('\n');
fprintf('%d ', nthroot(-27, 3), nthroot(16, 4), cbrt(64), realsqrt(49), pow2(5), pow2(3, 2)); fprintf('\n');
fprintf('%d ', nextpow2([1 5 16 1000])); fprintf('\n');
fprintf('%d ', sind([0 90 180 270]), cosd([0 90 180]), tand([45 -45])); fprintf('\n');
fprintf('%d ', sinpi([0.5 1 1.5]), cospi([0 1])); fprintf('\n');
fprintf('%d %d %d\n', gamma(6), round(rad2deg(pi)), round(atand(1)));
fprintf('%.4f %.4f %.4f\n', erf(0.5), erfinv(0.5), gammaln(20));
fprintf('%.4f %.4f %.4f\n', sec(0.5), acot(2), coth(1));
x = reshape(1:6, 2, 3);
disp(fliplr(x)); disp(flipud(x)); disp(rot90(x)); disp(circshift(x, 1, 2));
disp(tril(magic(3))); disp(triu(magic(3), 1));
disp(kron([1 2], [1; 10]));
disp(blkdiag([1 2; 3 4], 5));
[X, Y] = meshgrid(1:3, 1:2);
disp(X + 10*Y);
[A, B] = ndgrid(1:2, 1:3);
disp(A + 10*B);
fprintf('%d ', sub2ind([3 4], [1 3], [2 4])); fprintf('\n');
[r, c] = ind2sub([3 4], 11);
fprintf('%d %d\n', r, c);
fprintf('%d %d\n', issquare(magic(4)), issquare(x));
c = circshift({'a', 'b', 'c'}, 1);
fprintf('%s', c{:}); fprintf('\n');
fprintf('%s\n', fliplr('stressed'));
fprintf('%s\n', class(gamma(single(4))));
fprintf('%s %d\n', class(factorial(int16(5))), factorial(int16(5)));
try
  sub2ind([2 2], 3, 1);
catch err
  disp('caught out-of-range subscript');
end
