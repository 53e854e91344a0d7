% An error inside the body keeps its identifier and message.
y = zeros(1, 3);
parfor i = 1:3
  y(i) = [1 2] * [3 4];
end
