% display of cells, structs, strings and function handles
c = {1, 'abc'}
st.a = 1;
st.name = 'x';
st
str = "hi"
f = @(x) x.^2
