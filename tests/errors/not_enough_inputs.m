z = sin();
