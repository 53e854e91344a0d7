function [m, s] = stats_pair(v)
% unterminated function file with a local helper
m = mean(v);
s = spread(v, m);

function s = spread(v, m)
s = sqrt(sum((v - m).^2) / (numel(v) - 1));
