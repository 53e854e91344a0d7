% return from functions and scripts' control flow
fprintf('%d\n', find_first([5 8 13 21], 13));
fprintf('%d\n', find_first([5 8 13 21], 4));
fprintf('%s\n', classify(-3));
fprintf('%s\n', classify(0));
fprintf('%s\n', classify(12));

function idx = find_first(v, target)
  idx = -1;
  for k = 1:numel(v)
    if v(k) == target
      idx = k;
      return;
    end
  end
end

function s = classify(x)
  s = 'positive';
  if x < 0
    s = 'negative';
    return
  end
  if x == 0, s = 'zero'; end
end
