"use client";
// The sign-in page: a signed-in human who lands here (an old bookmark, the back button after signing in)
// goes on to the Room instead of reading how to sign in.
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { SignedOut, useMe } from "./session";

export function Welcome() {
  const me = useMe();
  const router = useRouter();
  useEffect(() => {
    if (me.data) router.replace("/room");
  }, [me.data, router]);
  // Nothing while asking: a signed-in human should not see the sign-in text flash before the Room.
  return me.isPending || me.data ? null : <SignedOut />;
}
