assert(false, 'value was %d', 5);
