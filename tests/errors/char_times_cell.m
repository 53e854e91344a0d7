x = 'abc' * {1};
