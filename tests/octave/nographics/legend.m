function varargout = legend(varargin)
  % Stand-in used by the differential test only when this Octave has no graphics toolkit
  % (figures are not compared, only printed numbers): does nothing.
  varargout = cell(1, nargout);
end
