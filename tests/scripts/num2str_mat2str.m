% num2str, mat2str, int2str conversions
fprintf('[%s]\n', num2str(pi, 8));
fprintf('[%s]\n', num2str(-0.5));
fprintf('[%s]\n', num2str(1e10));
fprintf('[%s]\n', num2str(true));
fprintf('[%s]\n', num2str(int8(-7)));
fprintf('[%s]\n', num2str(3.14159, '%8.3f'));
fprintf('[%s]\n', mat2str([1.5 -2; 0 4]));
fprintf('[%s]\n', mat2str([true false]));
fprintf('[%s]\n', mat2str('hi'));
fprintf('[%s]\n', mat2str(pi, 4));
fprintf('[%s]\n', int2str(2.5));
fprintf('[%s]\n', int2str([1.2 3.7]));
