% MATLAB behaviours checked by GNU Octave's own tests: exact complex sind/cosd at multiples of
% 90 degrees, mat2str's [n_re n_im] precision, cond's error for Inf/NaN, [] as the empty set
% beside text, rat of infinities, ellipke for M < 0, deblank of a char matrix, strjust.
disp(real(sind(180 + 180i)) == 0)
disp(real(cosd(90 + 1i)) == 0)
disp(mat2str(-1/3 + 1i/7, [4 2]))
try
  cond([1 2; Inf 4]);
catch ME
  disp(ME.identifier)
end
disp(size(union([], {'a', 'b'})))
disp(size(intersect({'a'}, [])))
disp(rat(Inf)); disp(rat(-Inf))
[K, E] = ellipke(-1);
fprintf('%.12f %.12f\n', K, E);
[K, E] = ellipke(-Inf);
fprintf('%g %g\n', K, E);
D = deblank(['ab  '; 'c   ']);
disp(size(D))
disp(class(skewness(single([1:5 10]))))
try
  xtickangle(Inf);
catch ME
  disp(ME.identifier)
end
