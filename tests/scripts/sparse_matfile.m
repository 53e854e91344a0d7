% save and load of sparse variables in MAT-files
S = sparse([1 3 2], [1 1 3], [1.5 -2 3], 4, 3);
L = sparse(logical([1 0; 0 1]));
Z = sparse([1 2], [1 2], [1+2i 3]);
f = [tempname '.mat'];
save(f, 'S', 'L', 'Z');
clear S L Z
load(f);
S
disp([issparse(S) issparse(L) issparse(Z)])
disp(class(L)); disp(size(S))
disp(full(Z))
delete(f);
