f = [@sin, @cos];
