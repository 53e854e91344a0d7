% cellfun and arrayfun with handles and UniformOutput
c = {[1 2 3], 'hello', [], {1, 2}};
fprintf('%d ', cellfun(@numel, c)); fprintf('\n');
fprintf('%d ', cellfun('isempty', c)); fprintf('\n');
sq = arrayfun(@(x) x^2, 1:5);
fprintf('%d ', sq); fprintf('\n');
u = cellfun(@(s) upper(s), {'ab', 'cd'}, 'UniformOutput', false);
fprintf('%s %s\n', u{:});
[mn, mx] = cellfun(@(v) deal(min(v), max(v)), {[3 1 2], [9 7]});
fprintf('%d %d / %d %d\n', mn(1), mx(1), mn(2), mx(2));
