% W8 interpreter: a scalar loop that exercises variable access, arithmetic and builtin calls.
% N can be overridden with the environment variable MATFUSE_BENCH_N.
N = 1e7;
n_env = getenv('MATFUSE_BENCH_N');
if ~isempty(n_env)
  N = str2double(n_env);
end
s = 0;
for i = 1:N
  s = s + sqrt(i) * mod(i, 7);
end
fprintf('checksum = %.10e\n', s);
