// PlanStatement: fetches the schema and dispatches to the per-statement planners.
#include <string>

#include "planner/plan.h"
#include "planner/plan_internal.h"

namespace keyhole::planner {

Result<Plan> PlanStatement(const parser::Statement& st, const SchemaSource& schemas) {
  using parser::StatementKind;
  std::string table;
  switch (st.kind()) {
    case StatementKind::kSelect:
      table = st.as<parser::SelectStatement>().table;
      break;
    case StatementKind::kInsert:
      table = st.as<parser::InsertStatement>().table;
      break;
    case StatementKind::kUpdate:
      table = st.as<parser::UpdateStatement>().table;
      break;
    case StatementKind::kDelete:
      table = st.as<parser::DeleteStatement>().table;
      break;
    case StatementKind::kExists:
      return Status::Validation("EXISTS can only be used in ExecuteTransaction write requests.");
    default:
      return Status::Validation(std::string(parser::StatementKindName(st.kind())) +
                                " is not planned: the planner handles SELECT, INSERT, UPDATE "
                                "and DELETE only");
  }
  KH_ASSIGN_OR_RETURN(TableSchemaPtr schema, schemas.TableSchema(table));
  const TableDescription& desc = *schema;
  Result<Plan> plan = [&]() -> Result<Plan> {
    switch (st.kind()) {
      case StatementKind::kSelect:
        return internal::PlanSelect(st, desc);
      case StatementKind::kInsert: {
        KH_ASSIGN_OR_RETURN(Plan p, internal::PlanInsert(st.as<parser::InsertStatement>(), desc));
        p.explain = st.explain;
        p.analyze = st.analyze;
        return p;
      }
      case StatementKind::kUpdate:
        return internal::PlanUpdate(st, desc);
      default:
        return internal::PlanDelete(st, desc);
    }
  }();
  if (plan.ok()) plan->names_as_values = internal::NamesWhereValuesGo(st);
  return plan;
}

}  // namespace keyhole::planner
