% A file identifier far outside int is an invalid identifier (its conversion to int was
% undefined behaviour).
tf = feof(1e12);
