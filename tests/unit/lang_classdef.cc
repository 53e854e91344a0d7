// Parser tests for classdef files: blocks, attributes, property lines, methods (in the file and
// signature-only), enumerations, superclass calls, and the errors for unclosed blocks.
#include <gtest/gtest.h>

#include "lang/parser.h"
#include "runtime/error.h"

namespace matfuse {
namespace {

using namespace ast;

const char* kClass = R"(classdef (Sealed) Point < handle & pkg.Base
  properties
    X (1,1) double {mustBeFinite} = 0
    Name string
    Tags
  end
  properties (Dependent, SetAccess = private)
    R
  end
  methods
    function obj = Point(x)
      obj = obj@pkg.Base(x);
      obj.X = x;
    end
    function r = get.R(obj)
      r = abs(obj.X);
    end
    r = area(obj)
  end
  methods (Static)
    function p = origin()
      p = Point(0);
    end
  end
  events
    Moved
  end
end
function helper()
end
)";

TEST(ClassdefParser, BlocksAttributesAndMembers) {
  auto f = parse_source(kClass, "Point.m");
  ASSERT_TRUE(f->classdef);
  const ClassDefAst& cd = *f->classdef;
  EXPECT_FALSE(f->is_script);
  EXPECT_EQ(cd.name, "Point");
  ASSERT_EQ(cd.attrs.size(), 1u);
  EXPECT_EQ(cd.attrs[0].name, "Sealed");
  ASSERT_EQ(cd.supers.size(), 2u);
  EXPECT_EQ(cd.supers[0], "handle");
  EXPECT_EQ(cd.supers[1], "pkg.Base");
  ASSERT_EQ(cd.properties.size(), 4u);
  const ClassProperty& x = cd.properties[0];
  EXPECT_EQ(x.name, "X");
  EXPECT_EQ(x.size, (std::vector<std::string>{"1", "1"}));
  EXPECT_EQ(x.cls, "double");
  EXPECT_EQ(x.validators.size(), 1u);
  EXPECT_EQ(x.default_block.size(), 1u);
  // "Name string" is a property with a class, not command syntax.
  EXPECT_EQ(cd.properties[1].name, "Name");
  EXPECT_EQ(cd.properties[1].cls, "string");
  EXPECT_TRUE(cd.properties[2].default_block.empty());
  const ClassProperty& r = cd.properties[3];
  EXPECT_EQ(r.name, "R");
  ASSERT_EQ(r.attrs.size(), 2u);
  EXPECT_EQ(r.attrs[0].name, "Dependent");
  EXPECT_EQ(r.attrs[0].value, "true");
  EXPECT_EQ(r.attrs[1].name, "SetAccess");
  EXPECT_EQ(r.attrs[1].value, "private");
  // Methods: constructor, get.R, the signature-only area, the static origin.
  ASSERT_EQ(cd.methods.size(), 4u);
  EXPECT_EQ(cd.methods[0].name, "Point");
  EXPECT_EQ(cd.methods[1].name, "get.R");
  EXPECT_EQ(cd.methods[2].name, "area");
  EXPECT_FALSE(cd.methods[2].has_body);
  EXPECT_EQ(cd.methods[3].name, "origin");
  ASSERT_EQ(cd.methods[3].attrs.size(), 1u);
  EXPECT_EQ(cd.methods[3].attrs[0].name, "Static");
  // Methods with bodies and the local function after the classdef are file functions.
  ASSERT_EQ(f->functions.size(), 4u);
  EXPECT_EQ(f->functions[3]->name, "helper");
  // obj@pkg.Base(x) is a call of the superclass constructor, named "obj@pkg.Base".
  const auto& ctor = *f->functions[0];
  ASSERT_FALSE(ctor.body.empty());
  const auto& as = static_cast<const AssignStmt&>(*ctor.body[0]);
  ASSERT_EQ(as.rhs->kind, ExprKind::Index);
  const auto& ix = static_cast<const IndexExpr&>(*as.rhs);
  ASSERT_EQ(ix.base->kind, ExprKind::Ident);
  EXPECT_EQ(static_cast<const IdentExpr&>(*ix.base).name, "obj@pkg.Base");
}

TEST(ClassdefParser, Enumeration) {
  auto f = parse_source("classdef Color\n  enumeration\n    Red (1, 0, 0), Green (0, 1, 0)\n"
                        "    Blue\n  end\nend\n",
                        "Color.m");
  ASSERT_TRUE(f->classdef);
  const auto& e = f->classdef->enumeration;
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].name, "Red");
  EXPECT_EQ(e[0].nargs, 3u);
  EXPECT_EQ(e[1].name, "Green");
  EXPECT_EQ(e[2].name, "Blue");
  EXPECT_EQ(e[2].nargs, 0u);
}

TEST(ClassdefParser, UnclosedBlocksSayWhatIsOpen) {
  try {
    parse_source("classdef A\n  properties\n    x = 1\n", "A.m");
    FAIL() << "expected an error";
  } catch (const MatlabError& e) {
    EXPECT_NE(e.message().find("'properties' opened at line 2"), std::string::npos)
        << e.message();
  }
  try {
    parse_source("classdef A\n  methods\n  end\n", "A.m");
    FAIL() << "expected an error";
  } catch (const MatlabError& e) {
    EXPECT_NE(e.message().find("'classdef' opened at line 1"), std::string::npos)
        << e.message();
  }
  EXPECT_THROW(parse_source("classdef A\n  x = 1\nend\n", "A.m"), MatlabError);
}

}  // namespace
}  // namespace matfuse
