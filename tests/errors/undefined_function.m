y = not_a_function_abc(3);
