s = 'abc;
