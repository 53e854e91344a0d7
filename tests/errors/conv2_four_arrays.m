% conv2's fourth argument is the shape text; a fourth array is an error (it was read as the
% kernel of a two-array call, past the end of the first vector).
y = conv2('ab', Inf, int8(3), NaN);
