error('pkg:thing', 'custom failure %d', 7);
