switch {1}
  case 1
end
