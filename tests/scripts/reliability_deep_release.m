% Values nested millions deep are released without recursion: clearing, overwriting or leaving
% a function with such a cell or struct never overflows the stack.
c = {1};
for k = 1:300000
  c = {c};
end
disp(size(c))
clear c
disp('cell released')
s = struct('next', []);
for k = 1:300000
  s = struct('next', s);
end
s = 0;
disp('struct released')
disp(build_and_drop(300000))

function r = build_and_drop(n)
  t = {};
  for k = 1:n
    t = {t, k};
  end
  r = numel(t);
end
