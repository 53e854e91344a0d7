% break cannot leave a parfor-loop.
parfor i = 1:3
  if i == 2
    break
  end
end
