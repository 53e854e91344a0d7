% matrix and cell literals with separators, continuation and comments
A = [1 2 3
     4 5 6];
fprintf('%dx%d\n', size(A));
B = [1, 2, ...
     3];
fprintf('%d ', B); fprintf('\n');
C = [A; 7 8 9];  % a trailing comment
fprintf('%d ', C(3, :)); fprintf('\n');
%{
This is a block comment.
x = error('not run');
%}
D = [1 -2];      % two elements
E = [1 - 2];     % one element
F = [1 , -2 ;];
fprintf('%d %d %d\n', numel(D), numel(E), numel(F));
G = {1, 'two'; [3 4], {5}};
fprintf('%dx%d %s\n', size(G), class(G{2, 2}));
H = [];
fprintf('%d %d\n', isempty(H), numel([H 1 H]));
I = ['abc'; 'def'];
fprintf('%s\n', I(2, :));
J = [1 +2];
fprintf('%d\n', numel(J));
K = [ 'x' 'y' ];
fprintf('%s\n', K);
