% A '*' width or precision from the data beyond int (an integer class's intmax, 1e300) is
% capped like a written one (100000 characters), never an undefined conversion.
s = sprintf('%*d|', uint64(18446744073709551615), 5);
disp(numel(s))
s = sprintf('%*d|', -1e300, 5);
disp([s(1) s(end-1:end)])
s = sprintf('%.*f', 1e300, 1);
disp(numel(s))
s = sprintf('[%*d]', Inf, 7);
disp(s)
