// Under Next alone (`next dev`, `next start`) every /api path comes here and goes to the one router; `quorum start`
// answers /api before Next sees it (surfaces/web/api-router.ts). Either way the declarations in surfaces/http/routes/ serve it.
import { answerApi } from "@/surfaces/http/router";

export const dynamic = "force-dynamic";

const answer = (request: Request) => answerApi(request);

export { answer as GET, answer as POST, answer as PUT, answer as PATCH, answer as DELETE, answer as HEAD, answer as OPTIONS };
