% insertAfter, insertBefore, reverse, count, splitlines, isStringScalar, convertStringsToChars,
% convertCharsToStrings (examples of MATLAB's reference pages).
s = insertAfter("hello world", "hello", " there")
s = insertBefore('abc', 2, 'XY')
s = insertAfter({'ab', 'cab'}, 'a', '-')
r = reverse("stressed")
r = reverse({'abc', 'de'})
n = count("the cat sat on the mat", "at")
n = count(["aaa", "abab"], "a")
n = count('The The the', 'the', 'IgnoreCase', true)
L = splitlines("one" + newline + "two")
disp(isStringScalar("a")); disp(isStringScalar('a')); disp(isStringScalar(["a" "b"]))
[a, b, c] = convertStringsToChars("x", ["y" "z"], 5)
[a, b] = convertCharsToStrings('abc', {'d', 'e'})
