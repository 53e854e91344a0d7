classdef Weekday
  enumeration
    Monday, Tuesday, Friday
  end
end
