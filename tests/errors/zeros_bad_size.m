z = zeros(2, 'bogus');
