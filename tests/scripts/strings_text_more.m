% String arithmetic and comparison, strings, ismissing, erase, eraseBetween, strip, cellstr,
% regexprep 'preservecase', strcat with a char matrix, unique/setdiff 'rows' of strings,
% display(A) (expected values from MATLAB's documentation examples).
a = "x" + 1
b = ["a" "b"] + [1 2]
c = 1.5 + "y"
disp("abc" == "abc")
disp("abc" < "abd")
disp(["b" "a"] > "a")
s = strings(2, 3);
disp(size(s))
disp(s(1) == "")
disp(ismissing([1 NaN 3]))
disp(ismissing({'a', '', 'b'}))
str = ["the quick brown fox jumps";"over the lazy dog"];
newStr = erase(str, " ")
disp(eraseBetween("The quick brown fox", "quick", " fox"))
disp(eraseBetween("The quick brown fox", "quick", " fox", 'Boundaries', 'inclusive'))
disp(eraseBetween("Edgar Allen Poe", 6, 11))
disp(erase('abcabc', {'b', 'c'}))
t = strip("   hello  ");
disp("[" + t + "]")
disp(strip('--hi--', '-'))
disp(strip('  left  ', 'left'))
C = cellstr(['ab ';'cde'])
disp(regexprep('Hello HELLO hello', 'hello', 'bye', 'preservecase'))
z = strcat("a", ['xy';'zw'])
u = unique(["a" "b"; "a" "b"; "c" "d"], 'rows')
d = setdiff(["a" "b"; "c" "d"], ["a" "b"], 'rows')
A = [1 2; 3 4];
display(A)
j = join(["a" "b"; "c" "d"], "-", 1)
j2 = join(["a" "b" "c"], ["+" "="])
j3 = join(["a" "b" "c"; "d" "e" "f"], [":" ";"; "-" "_"])
format long e
p = pi
format short g
p
format
