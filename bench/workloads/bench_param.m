function v = bench_param(name, default)
%BENCH_PARAM numeric workload parameter NAME from the environment (BENCH_NAME), else DEFAULT.
s = getenv(['BENCH_' name]);
if isempty(s)
  v = default;
else
  v = str2double(s);
end
end
