% A brace assignment without subscripts is an error (it read the dims before their first
% element and crashed; found by fuzz_interp).
c = {1};
c{} = 2;
