if NaN
  disp(1)
end
