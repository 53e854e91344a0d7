% command syntax
format long
x = 1/3;
fprintf('%.15f\n', x);
format short
hold on
close all
clc
warning off
a = 1; b = 2;
clear a
fprintf('%d %d\n', exist('a'), exist('b'));
disp hello
