% parpool(2) outside mpirun spawns two MPI workers; parfor and spmd run on them.
p = parpool(2);
disp(p.NumWorkers)
disp(p.Connected)
p
disp(isequal(gcp, p) || gcp('nocreate').NumWorkers == 2)
x = zeros(1, 6);
s = 0;
parfor i = 1:6
  x(i) = i * 3;
  s = s + i;
end
disp(x)
disp(s)
spmd
  w = spmdIndex * 10;
  r = spmdReduce(@plus, spmdIndex);
end
disp([w{1} w{2} r{1}])
w{2} = 7;
disp(w{2})
try
  parfor i = 1:4
    error('my:id', 'failed at %d', i);
  end
catch err
  disp(err.identifier)
end
delete(gcp('nocreate'))
disp(isempty(gcp('nocreate')))
