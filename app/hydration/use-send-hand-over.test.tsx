import { renderHook } from "@testing-library/react";
import { SEND_BEFORE_HYDRATION_GLOBAL, type SendBeforeHydration } from "./inline-send-before-hydration";
import { useSendHandOver } from "./use-send-hand-over";

/** The page's offer as the form's component finds it: a Send waiting as the form first renders, or not, and whether it is still there to take when the form has mounted. */
function offer({ waitingAtRender, thereAtMount }: { waitingAtRender: boolean; thereAtMount: boolean }) {
  const page: SendBeforeHydration = {
    sending: () => waitingAtRender,
    takeOver: (send) => {
      if (thereAtMount) send();
      return thereAtMount;
    },
  };
  (window as unknown as Record<string, SendBeforeHydration>)[SEND_BEFORE_HYDRATION_GLOBAL] = page;
}

afterEach(() => {
  delete (window as unknown as Record<string, unknown>)[SEND_BEFORE_HYDRATION_GLOBAL];
});

describe("useSendHandOver", () => {
  it("hands a Send waiting from before hydration to the form once it has mounted, and the form starts Sending...", () => {
    offer({ waitingAtRender: true, thereAtMount: true });
    const send = vi.fn();
    const dropped = vi.fn();
    const { result } = renderHook(() => useSendHandOver(send, dropped));
    expect(result.current).toBe(true);
    expect(send).toHaveBeenCalledTimes(1);
    expect(dropped).not.toHaveBeenCalled();
  });

  it("a Send the page dropped between the form's first render and its mount (the visitor left mid-hydration): the form is told, and nothing is sent", () => {
    // WebKit, CI 2026-11-26: the form hydrated showing Sending... for a Send dropped at pagehide, and stayed so after Back.
    offer({ waitingAtRender: true, thereAtMount: false });
    const send = vi.fn();
    const dropped = vi.fn();
    renderHook(() => useSendHandOver(send, dropped));
    expect(dropped).toHaveBeenCalledTimes(1);
    expect(send).not.toHaveBeenCalled();
  });

  it("no Send waiting: the form starts as the visitor's, and nothing is dropped", () => {
    offer({ waitingAtRender: false, thereAtMount: false });
    const dropped = vi.fn();
    const { result } = renderHook(() => useSendHandOver(vi.fn(), dropped));
    expect(result.current).toBe(false);
    expect(dropped).not.toHaveBeenCalled();
  });
});
