% classes and type predicates
fprintf('%s %s %s %s\n', class(1), class('a'), class(true), class({}));
fprintf('%s %s %s\n', class(struct()), class(@sin), class("s"));
fprintf('%d %d %d\n', isa(1, 'numeric'), isa(int8(1), 'integer'), isa(single(1), 'float'));
fprintf('%d %d %d %d\n', isnumeric(1), isnumeric('a'), ischar('a'), islogical(true));
fprintf('%d %d %d\n', iscell({}), isstruct(struct()), isfloat(int8(1)));
fprintf('%d\n', double('A'));
fprintf('%s\n', char([72 105]));
fprintf('%d ', logical([2 0 -1])); fprintf('\n');
fprintf('%d %d\n', uint8(3.5), int16(-3.5));
fprintf('%d\n', int32(2^40));
fprintf('%s\n', class(single(3) * int8(2)));
fprintf('%g\n', single(1) / 3 - double(single(1) / 3));
