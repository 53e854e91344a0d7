error('plain failure');
