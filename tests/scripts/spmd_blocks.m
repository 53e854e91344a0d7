% spmd blocks: without a pool the body runs once on the client (spmdIndex = spmdSize = 1);
% under mpirun on every rank (tests/parallel runs this script both ways and compares).
base = 5;
spmd
  idx = spmdIndex;
  n = spmdSize;
  mine = base * idx;
  % Every worker sends its index to the next one (a ring).
  nxt = mod(idx, n) + 1;
  prev = mod(idx - 2, n) + 1;
  spmdSend(idx, nxt, 7);
  [got, src, tag] = spmdReceive(prev, 7);
  ring_ok = got == prev && src == prev && tag == 7;
  b = spmdBroadcast(1, 100 + idx);
  tot = spmdReduce(@plus, idx);
  big = spmdReduce(@max, mine);
  row = spmdCat(idx);
  col = spmdCat(idx, 1);
  spmdBarrier;
  same = labindex == idx && numlabs == n;
end
% On the client these are Composites with a pool and plain values without one.
if isa(idx, 'Composite')
  N = n{1};
  ok = true;
  for k = 1:N
    ok = ok && idx{k} == k && mine{k} == base * k && ring_ok{k} && b{k} == 101 && ...
         tot{k} == N * (N + 1) / 2 && big{k} == base * N && isequal(row{k}, 1:N) && ...
         isequal(col{k}, (1:N)') && same{k};
  end
else
  N = n;
  ok = idx == 1 && mine == base && ring_ok && b == 101 && tot == 1 && big == base && ...
       isequal(row, 1) && isequal(col, 1) && same;
end
fprintf('spmd ok: %d\n', ok);
% Variables persist on the workers from one spmd block to the next.
spmd
  mine = mine + 1;
end
if isa(mine, 'Composite')
  v = mine{1};
else
  v = mine;
end
disp(v)
% Outside spmd the communication functions act on a pool of one: the client itself.
disp([spmdIndex spmdSize])
disp(spmdCat(4))
