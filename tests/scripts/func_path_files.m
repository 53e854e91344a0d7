% function files found on the path (addpath), terminated and unterminated, with local helpers
addpath('lib');
fprintf('%g ', scale_values([1 2 3])); fprintf('\n');
fprintf('%g ', scale_values([1 2 3], 10)); fprintf('\n');
[m, s] = stats_pair([2 4 4 4 5 5 7 9]);
fprintf('%g %.6f\n', m, s);
h = @scale_values;
fprintf('%g\n', h(4));
fprintf('%d\n', exist('scale_values'));
