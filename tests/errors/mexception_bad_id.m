ME = MException('not an id', 'message');
